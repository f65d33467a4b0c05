import { Type } from 'typebox';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { guard, operation } from '../shared/operation.js';
import { appAccounts } from './app-accounts.js';
import { Doctor } from './app-schemas.js';

/** The auth domain's declared operations (server/shared/operation.ts); its other routes and app methods are not converted yet. */
export const authOperations = {
  /** The clinic's doctors (and admins), whom booking names: read by whoever may read appointments. */
  doctors: operation({
    access: guard('appointments:read', { code: 'UNAUTHORIZED_ACCESS', audit: 'doctor.list' }),
    run: ({ service, ctx }, _input: undefined) => appAccounts(service).doctors(ctx),
    route: {
      method: 'GET', url: '/api/v1/doctors', errors: 'plain',
      schema: {
        operationId: 'listDoctors', tags: ['appointments'], summary: 'Doctors (and admins) of the clinic, for booking', security,
        response: { 200: Type.Object({ doctors: Type.Array(Doctor) }), ...plainErrors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (doctors) => ({ doctors }),
    },
    app: { args: [], result: Type.Array(Doctor), input: () => undefined, output: (doctors) => doctors },
  }),
};
