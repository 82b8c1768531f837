// REST routes of this domain (to be built; registered in app.ts already).
import type { AppContext } from '../../platform/context.js';
import type { Http } from '../../platform/http/types.js';

export function issuesRoutes(_app: Http, _ctx: AppContext): void {}
