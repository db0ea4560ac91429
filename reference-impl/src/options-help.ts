/** The reference's options as `--help` lists them: one text for sfc-reference and `storefront-conformance reference`. */
export const OPTIONS_HELP = `Options:
  --port N        port to listen on (default 8080; 0 picks a free port)
  --host ADDR     address to bind (default 127.0.0.1)
  --db FILE       SQLite database file, or :memory: (default ./.sfc-reference/reference.db)
  --vendor NAME   vendor segment of header, route and namespace (default svc; letscms for the real products)
  --hash-cost N   scrypt cost of new password hashes, a power of two (default 16384; env SFC_REFERENCE_HASH_COST)
  --fault ID      start with one fault of fixtures/faults/catalog.json switched on (off unless given)
  --single-session
                  a new login or register of an account ends its older tokens (what the real shop plugin
                  does; the documents leave token lifetime not shown); off unless given
  -h, --help      this text

Exit codes: 0 stopped by SIGINT or SIGTERM; 2 a bad option (unknown, out of range, an unknown fault id,
a --db that is not a SQLite file); 3 it cannot listen on the address.
`;
