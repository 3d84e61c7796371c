import { ConfigError, loadWeftConfig } from './weft-config';

describe('environment configuration', () => {
  it('takes defaults for what is not set', () => {
    expect(loadWeftConfig({})).toMatchObject({ WEFT_DATABASE: './data/weft.sqlite', WEFT_PORT: 3000, WEFT_DEFAULT_FIXTURE: 'blackwidow/bw-r1.5-288' });
  });

  it('stops at boot with a message naming every bad variable', () => {
    expect(() => loadWeftConfig({ WEFT_PORT: 'eighty', WEFT_LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadWeftConfig({ WEFT_PORT: 'eighty', WEFT_LOG_LEVEL: 'loud' })).toThrow(
      /WEFT_PORT="eighty": .*must be an integer number[\s\S]*WEFT_LOG_LEVEL="loud": WEFT_LOG_LEVEL must be one of the following values/,
    );
  });
});
