// GraphQL SDL: file types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const fileSdl = /* GraphQL */ `
"""Where and how to upload a file, and the address to reference it by afterwards."""
type UploadFile {
  """Headers."""
  headers: [UploadFileHeader!]!
  """Meta data."""
  metaData: JSONObject
  """Content type."""
  contentType: String!
  """Filename."""
  filename: String!
  """Asset url."""
  assetUrl: String!
  """Upload url."""
  uploadUrl: String!
  """Size."""
  size: Int!
}

"""A header the upload request must carry."""
type UploadFileHeader {
  """Key."""
  key: String!
  """Value."""
  value: String!
}

"""Result of a change to a upload."""
type UploadPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Upload file."""
  uploadFile: UploadFile
  """Whether the operation succeeded."""
  success: Boolean!
}
`;
