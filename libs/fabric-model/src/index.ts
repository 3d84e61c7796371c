export * from './fabric-design';
export * from './random';
export * from './blackwidow/blackwidow-design';
export * from './installation/installation-error';
export * from './installation/installation-file';
export * from './installation/json-checker';
export * from './installation/load-installation';
export * from './installation/json-syntax';
