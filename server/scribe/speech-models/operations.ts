import { Type } from 'typebox';
import { security } from '../../http/dr.js';
import { plainErrors } from '../../http/errors.js';
import { Available, arg } from '../../shared/app-method.js';
import { guard, operation } from '../../shared/operation.js';
import { SetDefaultBody, SpeechModel, SpeechModelId, SpeechModelList, SpeechModelParams } from './schemas.js';

const tags = ['speech models'];
const admin = guard('admin', { code: 'FORBIDDEN', audit: 'speech_model.access' });
const modelId = arg('modelId', SpeechModelId);

/**
 * Settings → Speech models, each operation declared once (server/shared/operation.ts), over HTTP our own endpoints
 * (docs/API.md "Speech models"): the list with download progress, starting a download, choosing the clinic's default.
 * Admin scope; errors `{"error":{"code","message"}}`. The order is the routes' (and the OpenAPI document's).
 */
export const speechModelOperations = {
  speechModels: operation({
    access: admin,
    run: ({ service, ctx }) => service.speechModels.list(ctx),
    route: {
      method: 'GET', url: '/api/v1/speech-models', errors: 'plain',
      schema: {
        operationId: 'listSpeechModels', tags, security,
        summary: 'Speech engines and models: installed or not, download progress, the clinic\'s default',
        description: 'Poll while a download runs: download.state is downloading with bytes_done, bytes_total and percent, until the model is installed or download.state is failed with a message.',
        response: { 200: SpeechModelList, ...plainErrors([401, 403, 500]) },
      },
      input: () => undefined,
      status: 200,
      body: (models) => ({ models }),
    },
    // Written in the browser's transport: a clinic server without the route (404) is worded as "not available" there.
    app: { args: [], result: Available(Type.Array(SpeechModel)), input: () => undefined, output: (value) => ({ available: true as const, value }), inTransport: true },
  }),

  /** Starts downloading a model in the background; the list shows the progress. */
  speechModelDownload: operation({
    access: admin,
    run: ({ service, ctx }, id: string) => service.speechModels.download(ctx, id),
    route: {
      method: 'POST', url: '/api/v1/speech-models/:id/download', errors: 'plain',
      schema: {
        operationId: 'downloadSpeechModel', tags, security, params: SpeechModelParams,
        summary: 'Start downloading a Whisper model in the background',
        description: '202 with the model (download.state downloading) when a download started or is already running; 200 when the model is installed already. Follow the progress with GET /api/v1/speech-models.',
        response: { 200: SpeechModel, 202: SpeechModel, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => request.params.id,
      status: 202,
      statusOf: ({ started }) => (started ? 202 : 200),
      body: ({ model }) => model,
    },
    app: { args: [modelId], result: SpeechModel, input: (id) => id, output: ({ model }) => model, viaRoute: {} },
  }),

  /** Makes an installed model the clinic's default; the list as it is now. */
  speechModelSetDefault: operation({
    access: admin,
    run: ({ service, ctx }, id: string) => service.speechModels.setDefault(ctx, id),
    route: {
      method: 'PUT', url: '/api/v1/speech-models/default', errors: 'plain',
      schema: {
        operationId: 'setDefaultSpeechModel', tags, security, body: SetDefaultBody,
        summary: 'Choose the clinic\'s default speech model',
        description: 'The default is tried first for every dictation whose languages it supports (docs/SCRIBE.md, engine choice). 409 MODEL_NOT_INSTALLED until the model is downloaded.',
        response: { 200: SpeechModelList, ...plainErrors([400, 401, 403, 404, 409, 500]) },
      },
      input: (request) => request.body.id,
      status: 200,
      body: (models) => ({ models }),
    },
    // The route answers the list wrapped ({models}), the method the list: a browser calls the app route.
    app: { args: [modelId], result: Type.Array(SpeechModel), input: (id) => id, output: (models) => models },
  }),
};
