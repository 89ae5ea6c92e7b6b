// How much a replica takes from a label server at once. A server is shared, so its rows are bounded as the local
// store's own are: a row larger than any this tool writes (a key and a note of MAX_NOTE_LENGTH characters, escaped)
// is skipped with its reason, and one pull page carries at most PAGE_BYTES.

/** The most bytes one row (or one label operation) from a server may take. */
export const MAX_ROW_BYTES = 64 * 1024;
/** The most bytes of rows one pull page brings (at least one row). */
export const PAGE_BYTES = 8 * 1024 * 1024;
