// The OAuth settings an admin changes: whether MCP clients may register
// themselves (RFC 7591 dynamic client registration; on by default, as MCP
// clients expect). One JSON value in the settings table.
import type { Db } from '../../platform/db/database.js';
import { saveSettingsValue, settingsValue } from '../workspace/queries.js';

export interface OAuthSettings {
  dynamicRegistration: boolean;
}

const SETTINGS_KEY = 'oauth';
export const DEFAULT_OAUTH: OAuthSettings = { dynamicRegistration: true };

export async function oauthSettings(db: Db): Promise<OAuthSettings> {
  const value = await settingsValue(db, SETTINGS_KEY);
  return value === undefined ? { ...DEFAULT_OAUTH } : { ...DEFAULT_OAUTH, ...JSON.parse(value) };
}

export const saveOAuthSettings = (db: Db, settings: OAuthSettings) =>
  saveSettingsValue(db, SETTINGS_KEY, JSON.stringify(settings));
