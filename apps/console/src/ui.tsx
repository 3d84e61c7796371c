// Small pieces every page of the console uses.

/** What went wrong, as the API said it, where the page shows it. */
export function ErrorLine({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error}
    </p>
  );
}

/** A run's number, opening it. */
export function RunLink({ id, open }: { id: string; open: (id: string) => void }) {
  return (
    <button className="link" onClick={() => open(id)}>
      #{id}
    </button>
  );
}
