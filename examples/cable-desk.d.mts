/** Types of the example automation client (examples/cable-desk.mjs). */
export function startCableDesk(options: {
  url: string;
  key: string;
  records: string;
  cursorFile?: string;
  onRecord?: (record: string) => void;
}): () => Promise<void>;
