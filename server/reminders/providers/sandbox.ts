import { randomUUID } from 'node:crypto';
import type { OutgoingMessage, SendOutcome } from './outcome.js';

/**
 * The sandbox's built-in provider: every message is taken and nothing leaves the machine, whatever provider the
 * sandbox clinic configured, so no real account is ever reached from the sandbox. The delivery log shows what would
 * have been sent (its text), and POST /api/v1/reminders/sandbox/inbound plays the patient's answers.
 */
export const sendSandbox = async (_m: OutgoingMessage): Promise<SendOutcome> => ({ kind: 'sent', messageId: `sandbox.${randomUUID()}` });
