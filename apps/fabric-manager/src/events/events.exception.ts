import { WeftException } from '../graphql/weft.exception';

export enum EventsErrorCode {
  EventNotFound = 'EVENT_NOT_FOUND',
  AlreadyAcknowledged = 'EVENT_ALREADY_ACKNOWLEDGED',
  CursorPruned = 'EVENT_CURSOR_PRUNED',
}

export class EventsException extends WeftException<EventsErrorCode> {
  constructor(code: EventsErrorCode, message: string) {
    super(code, message);
  }
}
