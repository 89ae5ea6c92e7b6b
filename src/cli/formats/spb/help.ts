// StreamProfileBench's paragraph of the top-level help (cli/main.ts): the option its index cache adds to every command.
export const SPB_HELP_NOTE = `Options for every command that opens a StreamProfileBench folder:
  --no-cache    read every file and leave the index alone (by default an unchanged file is read from
                <dir>/.personalab/index, which the extension shares; a changed file is read again)`;
