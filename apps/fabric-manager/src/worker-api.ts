/**
 * What `weft worker` uses of the service: the store's options, the emulator client, the runner of a
 * study's points and the job queue's worker — plain TypeORM and BullMQ, no Nest (a drill
 * campaign's point loads the application itself, for a manager of its own).
 */
export { dataSourceOptions } from './database/data-source-options';
export { EmulatorClient } from './emulator/emulator-client';
export { StudyPointRunner, workerName } from './studies/study-point-runner';
export { studyWorker } from './studies/study-queue';
