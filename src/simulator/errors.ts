import { NewsaggError } from '../runtime/errors.js';

/** Simulator options that cannot be honoured (more misbehaving publishers than publishers, ...). */
export class SimulatorConfigError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('SIM_CONFIG_INVALID', message, { cause });
  }
}

/** A test hook or control call named something the simulator does not have. */
export class SimulatorLookupError extends NewsaggError {
  constructor(what: string, id: string) {
    super('SIM_NOT_FOUND', `no such ${what}: ${id}`);
  }
}
