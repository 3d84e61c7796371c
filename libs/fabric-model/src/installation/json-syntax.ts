/**
 * Finds where a JSON text first goes wrong. Node's JSON.parse does not always say where (V8 gives
 * "Unexpected token '}', ... is not valid JSON" with no position), and an operator editing a
 * fixture needs a line and column.
 */
export function jsonSyntaxError(text: string): { line: number; column: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw new SyntaxAt(i, message);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${shown(text[i])}`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character inside a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail(`unexpected ${shown(text[i])}`);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a quoted field name, found ${shown(text[i])}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after a field name, found ${shown(text[i])}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}", found ${shown(text[i])}`);
      }
    } else if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]", found ${shown(text[i])}`);
      }
    } else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch >= '0' && ch <= '9')) number();
    else fail(ch === undefined ? 'unexpected end of file' : `unexpected ${shown(ch)}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${shown(text[i])} after the end of the document`);
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxAt)) throw error;
    const before = text.slice(0, error.offset);
    return { line: before.split('\n').length, column: error.offset - before.lastIndexOf('\n'), message: error.message };
  }
}

class SyntaxAt extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

function shown(ch: string | undefined): string {
  return ch === undefined ? 'end of file' : JSON.stringify(ch);
}
