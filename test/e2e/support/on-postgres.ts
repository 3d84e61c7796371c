process.env.WEFT_TEST_STORE = 'postgres';
