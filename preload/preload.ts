import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type ClinicApi, type IpcArgs, type IpcResult, UPLOAD_PROGRESS_CHANNEL, type UploadProgress } from './contract.js';

/**
 * window.clinic over IPC. Named methods only: the renderer gets no generic invoke/send it could point at any
 * channel. A failure comes back from main as a value ({ok:false,error}) and is rethrown here as a plain
 * {status, code, message} object, which (unlike an Error's own fields) survives the context bridge intact.
 */
function call<K extends keyof ClinicApi>(method: K, ...args: IpcArgs<K>): ReturnType<ClinicApi[K]> {
  return ipcRenderer.invoke(CHANNELS[method], ...args).then((result: IpcResult<unknown>) => {
    if (!result || typeof result !== 'object' || !('ok' in result)) throw { status: 0, code: 'IPC_ERROR', message: 'The app did not answer as expected' };
    if (!result.ok) throw { ...result.error };
    return result.value;
  }) as ReturnType<ClinicApi[K]>;
}

const clinic: ClinicApi = {
  serviceInfo: () => call('serviceInfo'),
  setupStatus: () => call('setupStatus'),
  setup: (input) => call('setup', input),
  signIn: (input) => call('signIn', input),
  signOut: () => call('signOut'),
  changePassword: (current, next) => call('changePassword', current, next),
  session: () => call('session'),
  searchPatients: (mobile) => call('searchPatients', mobile),
  getPatient: (id) => call('getPatient', id),
  createPatient: (input) => call('createPatient', input),
  updatePatient: (id, patch) => call('updatePatient', id, patch),
  mobileReview: () => call('mobileReview'),
  dayAppointments: (...date) => call('dayAppointments', ...date),
  bookAppointment: (input) => call('bookAppointment', input),
  parkAppointment: (id) => call('parkAppointment', id),
  setAppointmentStatus: (id, status) => call('setAppointmentStatus', id, status),
  doctors: () => call('doctors'),
  undoAppointment: (id) => call('undoAppointment', id),
  callNextPatient: (...doctorId) => call('callNextPatient', ...doctorId),
  queueBoard: () => call('queueBoard'),
  serverStatus: () => call('serverStatus'),
  users: () => call('users'),
  createUser: (input) => call('createUser', input),
  setUserDisabled: (id, disabled) => call('setUserDisabled', id, disabled),
  resetUserPassword: (id, next) => call('resetUserPassword', id, next),
  apiClients: () => call('apiClients'),
  createApiClient: (input) => call('createApiClient', input),
  revokeApiClient: (id) => call('revokeApiClient', id),
  apiKeys: () => call('apiKeys'),
  createApiKey: (input) => call('createApiKey', input),
  revokeApiKey: (id) => call('revokeApiKey', id),
  webhooks: () => call('webhooks'),
  createWebhook: (input) => call('createWebhook', input),
  deleteWebhook: (id) => call('deleteWebhook', id),
  webhookDeliveries: (id) => call('webhookDeliveries', id),
  redeliverWebhook: (id, deliveryId) => call('redeliverWebhook', id, deliveryId),
  pushCredentials: () => call('pushCredentials'),
  setPushCredentials: (saKey) => call('setPushCredentials', saKey),
  deletePushCredentials: () => call('deletePushCredentials'),
  backups: () => call('backups'),
  backup: () => call('backup'),
  connectedAssistants: () => call('connectedAssistants'),
  disconnectAssistant: (id) => call('disconnectAssistant', id),
  speechModels: () => call('speechModels'),
  speechModelDownload: (id) => call('speechModelDownload', id),
  speechModelSetDefault: (id) => call('speechModelSetDefault', id),
  recordingStart: (meta) => call('recordingStart', meta),
  recordingAppend: (id, seq, chunk) => call('recordingAppend', id, seq, chunk),
  recordingFinish: (id, durationS) => call('recordingFinish', id, durationS),
  recordings: () => call('recordings'),
  recordingAudio: (id) => call('recordingAudio', id),
  recordingDiscard: (id) => call('recordingDiscard', id),
  async uploadDictation(recordingId, options, onProgress) {
    const listener = (_e: unknown, p: UploadProgress & { recordingId: string }) => {
      if (p.recordingId === recordingId) onProgress?.({ phase: p.phase, loaded: p.loaded, total: p.total });
    };
    ipcRenderer.on(UPLOAD_PROGRESS_CHANNEL, listener);
    try {
      return await call('uploadDictation', recordingId, options);
    } finally {
      ipcRenderer.removeListener(UPLOAD_PROGRESS_CHANNEL, listener);
    }
  },
  dictationStatus: (txnId) => call('dictationStatus', txnId),
  scribeHistory: (patientId, cursor) => call('scribeHistory', patientId, cursor),
  dictationLanguages: () => call('dictationLanguages'),
};

contextBridge.exposeInMainWorld('clinic', clinic);
