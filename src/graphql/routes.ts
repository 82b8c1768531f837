// GraphQL endpoint (to be built; registered in app.ts already).
import type { AppContext } from '../platform/context.js';
import type { Http } from '../platform/http/types.js';

export async function graphqlRoutes(_app: Http, _ctx: AppContext): Promise<void> {}
