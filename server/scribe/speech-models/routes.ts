import { requireScope } from '../../http/auth.js';
import { security } from '../../http/dr.js';
import { plainErrors } from '../../http/errors.js';
import { routePlugin } from '../../http/route-plugin.js';
import { SetDefaultBody, SpeechModel, SpeechModelList, SpeechModelParams } from './schemas.js';

const tags = ['speech models'];

/**
 * Settings → Speech models over HTTP (our own endpoints, docs/API.md "Speech models"): the list with download
 * progress, starting a download, choosing the clinic's default. Admin scope; errors `{"error":{"code","message"}}`.
 */
export const speechModelRoutes = routePlugin('speech-models', ['speechModels', 'audit'], async (app, { speechModels: models, audit }) => {
  const config = { errors: 'plain' as const };
  const admin = requireScope('admin', 'FORBIDDEN', audit, 'speech_model.access');

  app.get('/api/v1/speech-models', {
    config, preParsing: admin,
    schema: {
      operationId: 'listSpeechModels', tags, security,
      summary: 'Speech engines and models: installed or not, download progress, the clinic\'s default',
      description: 'Poll while a download runs: download.state is downloading with bytes_done, bytes_total and percent, until the model is installed or download.state is failed with a message.',
      response: { 200: SpeechModelList, ...plainErrors([401, 403, 500]) },
    },
  }, async (request) => ({ models: await models.list(request.ctx) }));

  app.post('/api/v1/speech-models/:id/download', {
    config, preParsing: admin,
    schema: {
      operationId: 'downloadSpeechModel', tags, security, params: SpeechModelParams,
      summary: 'Start downloading a Whisper model in the background',
      description: '202 with the model (download.state downloading) when a download started or is already running; 200 when the model is installed already. Follow the progress with GET /api/v1/speech-models.',
      response: { 200: SpeechModel, 202: SpeechModel, ...plainErrors([400, 401, 403, 404, 500]) },
    },
  }, async (request, reply) => {
    const r = await models.download(request.ctx, request.params.id);
    return reply.code(r.started ? 202 : 200).send(r.model);
  });

  app.put('/api/v1/speech-models/default', {
    config, preParsing: admin,
    schema: {
      operationId: 'setDefaultSpeechModel', tags, security, body: SetDefaultBody,
      summary: 'Choose the clinic\'s default speech model',
      description: 'The default is tried first for every dictation whose languages it supports (docs/SCRIBE.md, engine choice). 409 MODEL_NOT_INSTALLED until the model is downloaded.',
      response: { 200: SpeechModelList, ...plainErrors([400, 401, 403, 404, 409, 500]) },
    },
  }, async (request) => ({ models: await models.setDefault(request.ctx, request.body.id) }));
});
