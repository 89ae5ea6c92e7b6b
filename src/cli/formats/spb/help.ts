// StreamProfileBench's paragraph of the top-level help (cli/main.ts): the option its index cache adds to every command.
export const SPB_HELP_NOTE = `Options for every command that opens a StreamProfileBench folder:
  --no-cache    read every file and leave the index alone (by default an unchanged file is read from
                <dir>/.personalab/index, which the extension shares; a changed file is read again)`;

// Its lines of `score --help`: the options of `score` only its folders take.
export const SPB_SCORE_USAGE = `                                                           StreamProfileBench: --sample NAME: over the users of
                                                           .personalab/samples/NAME.json only; --memory: each run's
                                                           persona memory (missed T_keep tags forgotten, ignored or
                                                           never captured; D_decay picks carried over or
                                                           re-inferred), our reading, not the paper's figure`;
