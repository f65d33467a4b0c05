import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type ClinicApi } from './contract.js';

// Named methods only: the renderer gets no generic invoke/send it could point at any channel.
const clinic: ClinicApi = {
  serviceInfo: () => ipcRenderer.invoke(CHANNELS.serviceInfo),
};

contextBridge.exposeInMainWorld('clinic', clinic);
