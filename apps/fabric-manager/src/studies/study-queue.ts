/**
 * The queue a study's points wait on for workers (issue 40): BullMQ on Redis — chosen because it
 * gives, on the engine made for it, what a home-made queue would have to earn: a job held by a
 * worker under a lock the worker keeps renewing, and given back to the queue (to another worker)
 * once a worker dies and its lock lapses ("stalled" jobs), with attempts counted.
 */
import { Job, Queue, Worker } from 'bullmq';

export const STUDY_QUEUE = 'weft-study-points';

/** One point of one study: what a worker takes off the queue. */
export interface StudyJob {
  studyId: number;
  pointId: number;
}

export interface QueueSettings {
  /** redis://host:port[/db] */
  redis: string;
  /** Namespaces the queue's keys, so that installations sharing a Redis do not share jobs. */
  prefix: string;
}

/** How many times a point is begun before it is given up as failed (a dying worker counts). */
export const POINT_ATTEMPTS = 3;

export function studyQueue(settings: QueueSettings): Queue<StudyJob> {
  return new Queue<StudyJob>(STUDY_QUEUE, {
    connection: { url: settings.redis, maxRetriesPerRequest: 1, enableOfflineQueue: false },
    prefix: settings.prefix,
    defaultJobOptions: { attempts: POINT_ATTEMPTS, backoff: { type: 'fixed', delay: 1_000 }, removeOnComplete: 1_000, removeOnFail: 1_000 },
  });
}

/** The job of point `pointId`: one per point, so that a point enqueued twice is one job. */
export function pointJob(job: StudyJob, index: number): { name: string; data: StudyJob; opts: { jobId: string } } {
  return { name: 'study-point', data: job, opts: { jobId: `study-${job.studyId}-point-${index}` } };
}

/**
 * A worker taking points off the queue, `concurrency` at a time. It holds each under a lock of
 * `lockMs`, renewed while it works; when it dies, the point goes back to the queue after at most
 * about twice that (BullMQ's stalled-job check), for another worker to take.
 */
export function studyWorker(
  settings: QueueSettings,
  work: (job: Job<StudyJob>) => Promise<void>,
  options: { concurrency: number; lockMs: number },
): Worker<StudyJob> {
  return new Worker<StudyJob>(STUDY_QUEUE, work, {
    connection: { url: settings.redis, maxRetriesPerRequest: null },
    prefix: settings.prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.lockMs,
    // A point whose worker died is given back this many times before it fails.
    maxStalledCount: POINT_ATTEMPTS,
  });
}
