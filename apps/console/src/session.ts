// The signed-in API key, kept for the browser tab (sessionStorage: gone when the tab closes).
const KEY = 'weft.apiKey';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, key);
}
