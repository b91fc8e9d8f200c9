/**
 * truncateMessage cuts a message longer than maxLength to maxLength characters ending in " ...", so what the writer
 * keeps and publishes per record stays small whatever the apiserver or a producer said. Mirrors client-go
 * tools/events truncateMessage (whose limit for events is 1024).
 */
export function truncateMessage(message: string, maxLength: number): string {
  const suffix = ' ...';
  return message.length <= maxLength ? message : message.slice(0, maxLength - suffix.length) + suffix;
}

/** MAX_EVENT_MESSAGE_LENGTH is client-go tools/events' maxMessageLength: an Event's message is cut to it. */
export const MAX_EVENT_MESSAGE_LENGTH = 1024;

/** MAX_RESULT_MESSAGE_LENGTH bounds a MutationResult's message (an apiserver Status message, an error). */
export const MAX_RESULT_MESSAGE_LENGTH = 4096;
