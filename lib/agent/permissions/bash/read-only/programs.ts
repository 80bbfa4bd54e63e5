/**
 * The read-only programs plan mode lets Bash run, each with the options it may be given (the GNU
 * and ripgrep manuals' names). Left out on purpose: options that write a file (`sort -o`, `tree -o`,
 * `--output`), run a program (`rg --pre`, `rg -z`, `sort --compress-program`, `git diff --ext-diff`,
 * `--textconv`, `git grep -O`, `--show-signature`), and `find`'s `-exec`, `-ok`, `-delete` and `-fprint`
 * families; `sed -i`, `sed -f` and write commands are read-only.ts's and sed-script.ts's to refuse.
 * Programs that can do either (awk, xargs, env, make) are not here at all.
 */
import type { OptionSpec } from "./options.ts";

/** A list of option names written as one string, a space or line break between two. */
const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

const s = (short: string, shortValue = "", long: string[] = [], more: Partial<OptionSpec> = {}): OptionSpec => ({ short, shortValue, long, ...more });

const GREP_LONG = words(`
  extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case
  word-regexp line-regexp null-data no-messages invert-match version help max-count= byte-offset
  line-number no-line-number line-buffered with-filename no-filename label= only-matching quiet silent
  binary-files= text directories= devices= recursive dereference-recursive include= exclude=
  exclude-from= exclude-dir= files-without-match files-with-matches count initial-tab null
  before-context= after-context= context= color? colour?
`);
const GREP = s("EFGPiyvwxclLoqsbHhnTZzarRUI", "efmABCdD", GREP_LONG, { numeric: true });

const RG = s(
  "iSsFwxvclLnNoqHIuUPhV0.",
  "eEgtTmABCfjMr",
  words(`
  ignore-case smart-case case-sensitive fixed-strings word-regexp line-regexp invert-match count
  count-matches files-with-matches files-without-match files line-number no-line-number only-matching
  quiet with-filename no-filename hidden no-hidden no-ignore no-ignore-vcs no-ignore-dot
  no-ignore-parent no-ignore-global follow glob= iglob= type= type-not= type-list max-count=
  max-depth= max-filesize= before-context= after-context= context= color= colors= json vimgrep heading
  no-heading multiline multiline-dotall pcre2 sort= sortr= trim column no-column null regexp= replace=
  stats no-messages text unrestricted debug passthru byte-offset field-match-separator=
  field-context-separator= path-separator= max-columns= max-columns-preview engine= encoding= crlf
  null-data one-file-system threads= version help no-config binary invert-match
`),
);

const HEAD = s("qvz", "nc", words("lines= bytes= quiet silent verbose zero-terminated"), { numeric: true });
const LS_LONG = words(`
  all almost-all author escape block-size= ignore-backups color? colour? directory dired classify?
  file-type format= full-time group-directories-first no-group human-readable si
  dereference-command-line dereference-command-line-symlink-to-dir hide= hyperlink? indicator-style=
  inode ignore= kibibytes literal numeric-uid-gid hide-control-chars show-control-chars quote-name
  quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero
  dereference help version
`);
/** Arguments of the diff family (git log, show, diff) that only read and print. */
const GIT_DIFF_LONG = words(`
  format= pretty? oneline abbrev-commit no-abbrev-commit abbrev? no-abbrev graph decorate? no-decorate
  all branches? tags? remotes? stat? shortstat numstat name-only name-status summary compact-summary
  patch no-patch raw patch-with-stat patch-with-raw cached staged merge-base color? no-color
  color-words? color-moved? no-color-moved word-diff? word-diff-regex= unified= ignore-all-space
  ignore-space-change ignore-blank-lines ignore-space-at-eol ignore-cr-at-eol minimal patience
  histogram diff-algorithm= anchored= function-context relative? no-relative text find-renames?
  find-copies? find-copies-harder no-renames diff-filter= exit-code quiet check full-index binary
  src-prefix= dst-prefix= no-prefix default-prefix author= committer= since= after= until= before=
  grep= all-match invert-grep regexp-ignore-case extended-regexp fixed-strings perl-regexp max-count=
  skip= merges no-merges min-parents= max-parents= first-parent reverse date-order author-date-order
  topo-order date= follow no-ext-diff no-textconv stat-width= stat-count= stat-name-width= dirstat?
  cumulative source left-right cherry-pick cherry-mark boundary simplify-by-decoration full-history
  ancestry-path? notes? no-notes expand-tabs? no-expand-tabs parents children walk-reflogs pickaxe-all
  pickaxe-regex ignore-submodules? submodule? no-index mailmap use-mailmap no-mailmap full-diff
  remerge-diff diff-merges= no-diff-merges cc combined-all-paths break-rewrites? irreversible-delete
  ws-error-highlight= indent-heuristic no-indent-heuristic no-walk? do-walk decorate-refs=
  decorate-refs-exclude= exclude= glob= count not reflog show-linear-break? encoding= name-status
  output-indicator-new= output-indicator-old= output-indicator-context= dense sparse show-pulls
`);
const GIT_LOG = s("pusmcrtzaiEFPwbRW", "nSGLO", GIT_DIFF_LONG, { numeric: true, shortOptional: "MCBUl" });

/** git's subcommands that only read, with their options; git's own `-C dir` and `--no-pager` come before them. */
export const GIT_SUBCOMMANDS: Record<string, OptionSpec> = {
  status: s(
    "sbvz",
    "",
    words(`
  short branch porcelain? long verbose untracked-files? ignored? ignore-submodules? column? no-column
  ahead-behind no-ahead-behind renames no-renames find-renames? show-stash null
`),
    { shortOptional: "u" },
  ),
  log: GIT_LOG,
  show: GIT_LOG,
  diff: GIT_LOG,
  whatchanged: GIT_LOG,
  branch: s(
    "arvl",
    "",
    words(`
  list all remotes verbose show-current contains= no-contains= merged? no-merged? sort= format=
  points-at= column? no-column color? no-color abbrev= no-abbrev ignore-case omit-empty
`),
  ),
  "rev-parse": s(
    "q",
    "",
    words(`
  show-toplevel abbrev-ref? short? verify git-dir git-common-dir is-inside-work-tree is-inside-git-dir
  is-bare-repository is-shallow-repository show-prefix show-cdup symbolic-full-name symbolic
  absolute-git-dir show-superproject-working-tree quiet all branches? tags? remotes? sq path-format=
  default= revs-only no-revs flags no-flags show-object-format? show-ref-format
`),
  ),
  "ls-files": s(
    "cdmoisktvfuz",
    "xX",
    words(`
  cached deleted modified others ignored stage killed directory no-empty-directory exclude=
  exclude-from= exclude-per-directory= exclude-standard error-unmatch full-name recurse-submodules
  abbrev? eol deduplicate format= unmerged sparse debug
`),
  ),
  "ls-tree": s("drtz", "", words("name-only name-status full-name full-tree long abbrev? object-only format=")),
  blame: s(
    "bclstfnpwe",
    "L",
    words(`
  root show-stats porcelain line-porcelain incremental encoding= contents= date= show-name show-number
  show-email ignore-rev= ignore-revs-file= color-lines color-by-age abbrev= minimal since= reverse=
  progress no-progress score-debug first-parent
`),
    { shortOptional: "MC" },
  ),
  describe: s("", "", words("tags all long abbrev= always contains exact-match first-parent match= exclude= candidates= debug")),
  shortlog: s("nsec", "w", words("numbered summary email committer group= format= no-merges merges all since= until=")),
  "show-ref": s("dsq", "", words("head heads branches tags dereference hash? abbrev? verify quiet exists")),
  "cat-file": s("tspe", "", ["batch-check?", "allow-unknown-type", "follow-symlinks"], { maxOperands: 2 }),
  "rev-list": s(
    "n",
    "",
    words(`
  all count max-count= reverse first-parent since= until= objects no-merges merges left-right
  abbrev-commit parents topo-order date-order
`),
    { numeric: true },
  ),
  grep: s(
    "iIvwclLnhHoqEFGPazr",
    "efABC",
    words(`
  ignore-case invert-match word-regexp count files-with-matches name-only files-without-match
  line-number column no-index untracked cached extended-regexp fixed-strings basic-regexp perl-regexp
  before-context= after-context= context= function-context show-function heading break full-name
  max-depth= max-count= recurse-submodules only-matching quiet all-match and or not null color?
  no-color text threads=
`),
    { numeric: true },
  ),
};

/** Programs that only read, by name, and what they may be given. */
export const READ_ONLY_PROGRAMS: Record<string, OptionSpec> = {
  ls: s("aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1", "IwT", LS_LONG),
  cat: s("AbeEnstTuv", "", words("show-all number-nonblank number squeeze-blank show-ends show-tabs show-nonprinting")),
  head: HEAD,
  tail: s("qvzfF", "ncs", words("lines= bytes= quiet silent verbose zero-terminated follow? retry sleep-interval="), { numeric: true }),
  wc: s("clmwL", "", words("bytes chars lines words max-line-length total=")),
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
  sed: s(
    "nErsuz",
    "el",
    words(`
  quiet silent regexp-extended separate unbuffered null-data posix debug sandbox expression=
  line-length=
`),
  ),
  sort: s(
    "bdfgiMhnRrVcCsuz",
    "ktS",
    words(`
  ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting
  month-sort human-numeric-sort numeric-sort random-sort reverse version-sort key= field-separator=
  stable unique zero-terminated check? buffer-size= parallel= sort= debug
`),
  ),
  uniq: s(
    "cdDiuz",
    "fsw",
    words(`
  count repeated all-repeated? ignore-case unique zero-terminated skip-fields= skip-chars=
  check-chars= group?
`),
    { maxOperands: 1 },
  ),
  cut: s("snz", "bcdf", words("bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated")),
  tr: s("cCdst", "", [], { maxOperands: 2 }),
  diff: s(
    "qsuNawbBiEZtTyrpc",
    "UCxXSIF",
    words(`
  brief report-identical-files unified? context? recursive new-file unidirectional-new-file text
  ignore-all-space ignore-space-change ignore-blank-lines ignore-case ignore-tab-expansion
  ignore-trailing-space side-by-side color? exclude= exclude-from= label= strip-trailing-cr
  no-dereference suppress-common-lines width= minimal speed-large-files ignore-matching-lines=
  show-function-line= show-c-function normal expand-tabs initial-tab from-file= to-file= left-column
  tabsize= starting-file=
`),
  ),
  cmp: s("bls", "in", words("print-bytes verbose silent quiet ignore-initial= bytes="), { maxOperands: 4 }),
  comm: s("123iz", "", words("check-order nocheck-order output-delimiter= total zero-terminated")),
  nl: s("p", "bdfhilnsvw", []),
  od: s("bcdfiloxsv", "AjNtSw", []),
  rev: s(""),
  tac: s("br", "s", ["before", "regex", "separator="]),
  fold: s("bs", "w", ["bytes", "spaces", "width="]),
  column: s("tnex", "scoNR", []),
  strings: s("afw", "nte", words("all bytes= radix= encoding=")),
  xxd: s("ubEiprC", "cgloPs", [], { maxOperands: 1 }),
  file: s(
    "bcEhiLNnpkrsSvz0",
    "emfFP",
    words(`
  brief mime mime-type mime-encoding dereference no-dereference keep-going raw uncompress no-pad
  print0 special-files extension apple
`),
  ),
  stat: s("LftZ", "c", words("dereference file-system format= printf= terse")),
  du: s(
    "abchHklLmsSxD0",
    "dBtX",
    words(`
  all apparent-size bytes total human-readable si summarize max-depth= exclude= threshold= inodes
  count-links dereference one-file-system null block-size=
`),
  ),
  df: s(
    "ahHiklPTx0",
    "Bt",
    words(`
  all human-readable si inodes local portability print-type total type= exclude-type= block-size=
  output?
`),
  ),
  tree: s(
    "adfFilpsughDrtvUCAnNQqSJx",
    "LPI",
    words(`
  noreport dirsfirst charset= filelimit= timefmt= sort= gitignore prune matchdirs ignore-case du si
  help version
`),
  ),
  pwd: s("LP"),
  true: s("", "", [], { anyArgs: true }),
  false: s("", "", [], { anyArgs: true }),
  echo: s("", "", [], { anyArgs: true }),
  printf: s("", "", [], { anyArgs: true }),
  test: s("", "", [], { anyArgs: true }),
  "[": s("", "", [], { anyArgs: true }),
  seq: s("", "", [], { anyArgs: true }),
  whoami: s("", "", [], { maxOperands: 0 }),
  hostname: s("", "", [], { maxOperands: 0 }),
  id: s("gGnruz", "", [], { maxOperands: 1 }),
  uname: s(
    "asnrvmpio",
    "",
    words(`
  all kernel-name nodename kernel-release kernel-version machine processor hardware-platform
  operating-system
`),
    { maxOperands: 0 },
  ),
  date: s("uIR", "dr", words("date= reference= utc universal iso-8601? rfc-3339= rfc-email")),
  which: s("as"),
  type: s("aftpP"),
  basename: s("az", "s", ["multiple", "suffix=", "zero"]),
  dirname: s("z", "", ["zero"]),
  realpath: s(
    "eLmPqsz",
    "",
    words(`
  canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero
  relative-to= relative-base=
`),
  ),
  readlink: s("efmnqsvz", "", words("canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero")),
  printenv: s("0", "", ["null"]),
  cd: s("LP", "", [], { maxOperands: 1 }),
  find: s(""), // find's expression is read-only.ts's (findProblem)
  git: s(""), // git's subcommands are GIT_SUBCOMMANDS
};
