import { Type } from 'typebox';
import { OPERATIONS } from '../app-api.js';
import { checkArgs, compileArgs } from '../shared/app-args.js';
import { appMethodPath } from '../shared/app-method-path.js';
import { erased, runApp } from '../shared/operation.js';
import { accessChecks } from './operation-routes.js';
import { routePlugin } from './route-plugin.js';

/**
 * The app methods of declared operations whose public route answers in another shape than the method's result
 * (parking's 204, booking's history, the doctors' wrapper), over HTTP for the browser's transport
 * (renderer/src/transport/http.ts): one POST per method, its body the arguments as a JSON array (null for an optional
 * argument left out), its answer {"value": result}. After the operation's guard, the same argument checks as main's
 * IPC handlers (in words) and the same implementation: a browser and the desktop app get the same result, and no
 * route of the public interface has to answer in the app's shapes (nor a browser call two routes and rebuild the
 * result). Not part of the public interface (hidden from the OpenAPI document); errors are plain
 * ({"error":{"code","message"}}).
 */
export const appMethodRoutes = routePlugin('app-methods', ['service'], async (app, { service }) => {
  for (const [name, declared] of Object.entries(OPERATIONS)) {
    const op = erased(declared);
    // A method a browser calls on the operation's public route needs no second way in.
    if (!op.app || op.app.viaRoute || op.app.inTransport) continue;
    const specs = compileArgs(op.app.args);
    const run = runApp(op);
    app.post(appMethodPath(name), {
      config: { errors: 'plain' },
      preParsing: accessChecks(op.access, service),
      schema: { hide: true, body: Type.Array(Type.Unknown()) },
    }, async (request) => {
      // JSON has no undefined: an optional argument left out arrives as null.
      const args = (request.body as unknown[]).map((a, i) => (a === null && specs[i]?.optional ? undefined : a));
      checkArgs(name, specs, args);
      return { value: await run({ service, ctx: request.ctx }, args) };
    });
  }
});
