process.env.WEFT_TEST_STORE = 'sqlite';
