import { WeftException } from '../graphql/weft.exception';

export enum EventsErrorCode {
  EventNotFound = 'EVENT_NOT_FOUND',
}

export class EventsException extends WeftException<EventsErrorCode> {
  constructor(code: EventsErrorCode, message: string) {
    super(code, message);
  }
}
