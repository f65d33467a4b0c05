export { createService, type Service, type ServiceOptions } from './service.js';
export { buildHttpApp, type HttpApp } from './http/app.js';
export { configFromArgs, type Config, DEFAULT_PORT } from './config.js';
