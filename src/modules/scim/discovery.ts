// SCIM's discovery endpoints (RFC 7644 §4): what this server supports, so a
// provider's "Test connection" and its attribute mapping read the truth.
import { GROUP_SCHEMA, LIST_SCHEMA, USER_SCHEMA } from './present.js';
import { MAX_PAGE } from './service.js';

export const serviceProviderConfig = (base: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  documentationUri: 'https://github.com/trackway/trackway/blob/main/docs/identity.md',
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_PAGE },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: 'A SCIM token an admin creates on the SCIM admin page',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
});

const resourceType = (base: string, name: 'User' | 'Group', schema: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: name,
  name,
  endpoint: `/${name}s`,
  schema,
  meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${name}` },
});

export const resourceTypes = (base: string) => {
  const list = [resourceType(base, 'User', USER_SCHEMA), resourceType(base, 'Group', GROUP_SCHEMA)];
  return {
    schemas: [LIST_SCHEMA],
    totalResults: list.length,
    startIndex: 1,
    itemsPerPage: list.length,
    Resources: list,
  };
};

const attr = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export const schemas = () => {
  const list = [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: USER_SCHEMA,
      name: 'User',
      description: 'A Trackway account; userName is its email',
      attributes: [
        attr('userName', { required: true, uniqueness: 'server' }),
        attr('externalId', { caseExact: true }),
        attr('displayName'),
        attr('active', { type: 'boolean' }),
        {
          ...attr('name', { type: 'complex' }),
          subAttributes: [attr('formatted'), attr('givenName'), attr('familyName')],
        },
        {
          ...attr('emails', { type: 'complex', multiValued: true, mutability: 'readOnly' }),
          subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' })],
        },
      ],
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'A Trackway team; members are its memberships',
      attributes: [
        attr('displayName', { required: true }),
        attr('externalId', { caseExact: true }),
        {
          ...attr('members', { type: 'complex', multiValued: true }),
          subAttributes: [attr('value', { caseExact: true }), attr('display', { mutability: 'readOnly' })],
        },
      ],
    },
  ];
  return {
    schemas: [LIST_SCHEMA],
    totalResults: list.length,
    startIndex: 1,
    itemsPerPage: list.length,
    Resources: list,
  };
};
