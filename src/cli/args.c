/* Small helpers shared by the boxbfs subcommands: strict integer parsing,
 * "--name=value" / "--name value" options, the command line that gen, convert
 * and info share, error printing with the exit code of a status (cli.h),
 * graph loading with progress, and the commit the binary was built from. */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bb_parse_positive(const char *text, double *value_p)
{
    char *end;
    double v;
    if (text == NULL || *text == '\0') return -1;
    errno = 0;
    v = strtod(text, &end);
    /* written so that NaN fails too */
    if (*end != '\0' || errno != 0 || !(v > 0 && v < 1e300)) return -1;
    *value_p = v;
    return 0;
}

int bb_parse_i64(const char *text, int64_t min, int64_t max, int64_t *value_p)
{
    const char *p = text;
    uint64_t magnitude = 0, limit;
    int negative = 0;
    int64_t value;

    if (text == NULL) return -1;
    if (*p == '+' || *p == '-') negative = *p++ == '-';
    if (*p == '\0') return -1;   /* empty, or a sign alone */
    /* The largest magnitude the sign allows: 2^63 for negative numbers. */
    limit = negative ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (; *p != '\0'; p++) {
        unsigned digit;
        if (*p < '0' || *p > '9') return -1;   /* junk, spaces, a second sign */
        digit = (unsigned)(*p - '0');
        if (magnitude > (limit - digit) / 10u) return -1;   /* overflow */
        magnitude = magnitude * 10u + digit;
    }
    if (negative)
        value = magnitude == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)magnitude;
    else
        value = (int64_t)magnitude;
    if (value < min || value > max) return -1;
    if (value_p != NULL) *value_p = value;
    return 0;
}

/* After a match on "--name value", *i is left on the value, so that the
 * caller's loop increment moves past it; "--name=value" leaves *i alone. A
 * following argument that starts with "--" is another option, not a value. */
const char *bb_opt_value(int argc, char **argv, int *i, const char *name, int *missing_p)
{
    const char *arg;
    size_t len;

    if (missing_p != NULL) *missing_p = 0;
    if (argv == NULL || i == NULL || name == NULL || *i < 0 || *i >= argc) return NULL;
    arg = argv[*i];
    len = strlen(name);
    if (arg == NULL || strncmp(arg, name, len) != 0) return NULL;
    if (arg[len] == '=') return arg + len + 1;
    if (arg[len] != '\0') return NULL;   /* "--threadsX" is another option */
    if (*i + 1 >= argc || argv[*i + 1] == NULL || strncmp(argv[*i + 1], "--", 2) == 0) {
        if (missing_p != NULL) *missing_p = 1;
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

int bb_opt_direction(const char *arg, boxbfs_direction_t *direction_p)
{
    if (strcmp(arg, "--directed") == 0) *direction_p = BOXBFS_DIRECTION_DIRECTED;
    else if (strcmp(arg, "--undirected") == 0) *direction_p = BOXBFS_DIRECTION_UNDIRECTED;
    else return 0;
    return 1;
}

int bb_ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

int bb_cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "boxbfs: %s: ", command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'boxbfs %s --help'.\n", command);
    return BB_EXIT_USAGE;
}

int bb_cli_parse_load_args(const bb_load_cmd_t *cmd, int argc, char **argv,
                           bb_load_args_t *args_p)
{
    bb_load_args_t args = {{BOXBFS_DIRECTION_DEFAULT, 0, 0}, {NULL, NULL}, NULL};
    int positional_only = 0, npositional = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        boxbfs_direction_t d;
        int missing = 0;
        if (positional_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (npositional == cmd->max_positional)
                return bb_cli_usage_error(cmd->command, "unexpected argument '%.100s': %s", arg,
                                          cmd->too_many);
            args.positional[npositional++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            positional_only = 1;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(cmd->usage, stdout);
            return BB_EXIT_OK;
        } else if (bb_opt_direction(arg, &d)) {
            if (args.load.direction != BOXBFS_DIRECTION_DEFAULT && args.load.direction != d)
                return bb_cli_usage_error(cmd->command,
                                          "--directed and --undirected exclude each other");
            args.load.direction = d;
        } else if (cmd->takes_json &&
                   ((v = bb_opt_value(argc, argv, &i, "--json", &missing)) != NULL || missing)) {
            if (missing)
                return bb_cli_usage_error(cmd->command,
                                          "--json needs a value: a file name, or - for stdout");
            if (v[0] == '\0')
                return bb_cli_usage_error(cmd->command,
                                          "--json needs a file name, or - for stdout");
            args.json = v;
        } else if ((v = bb_opt_value(argc, argv, &i, "--threads", &missing)) != NULL || missing) {
            int64_t t;
            if (missing || bb_parse_i64(v, 0, 65536, &t) != 0)
                return bb_cli_usage_error(cmd->command, "--threads needs a whole number in "
                                          "[0, 65536] (0: all CPUs)");
            args.load.threads = (int)t;
        } else {
            return bb_cli_usage_error(cmd->command, "unknown option '%.100s'", arg);
        }
    }
    *args_p = args;
    return BB_ARGS_GO_ON;
}

void bb_cli_note_direction(const char *spec, const boxbfs_load_options_t *opts)
{
    if (opts->direction != BOXBFS_DIRECTION_DEFAULT &&
        (bb_ends_with(spec, ".bbcsr") || bb_ends_with(spec, ".bbcsr.gz")))
        bb_cli_error("note: %s has no effect on %s: a .bbcsr file records its own direction",
                     opts->direction == BOXBFS_DIRECTION_DIRECTED ? "--directed" : "--undirected",
                     spec);
}

boxbfs_status_t bb_cli_load_graph(const char *verb, const char *spec,
                                  const boxbfs_load_options_t *opts, boxbfs_graph_t *graph_p)
{
    bb_progress_t progress;
    boxbfs_status_t st;
    char label[320];

    snprintf(label, sizeof label, "%s %.300s", verb, spec);
    bb_progress_start(&progress, label, 0);
    bb_progress_update(&progress, 0);
    st = boxbfs_graph_load(spec, opts, graph_p);
    bb_progress_end(&progress);
    return st;
}

/* The message of the CLI's last own failure (bb_cli_status); one thread. */
static char cli_message[1024];

boxbfs_status_t bb_cli_status(boxbfs_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cli_message, sizeof cli_message, fmt, ap);
    va_end(ap);
    return status;
}

int bb_cli_fail(boxbfs_status_t status)
{
    const char *message = cli_message[0] != '\0' ? cli_message : boxbfs_last_error();
    if (status == BOXBFS_OK) return BB_EXIT_OK;
    if (message == NULL || message[0] == '\0') message = boxbfs_status_string(status);
    fprintf(stderr, "boxbfs: %s\n", message);
    cli_message[0] = '\0';
    switch (status) {
    case BOXBFS_ERR_INVALID_ARG:
    case BOXBFS_ERR_IO:
    case BOXBFS_ERR_PARSE:
    case BOXBFS_ERR_UNSUPPORTED: return BB_EXIT_USAGE;
    case BOXBFS_ERR_VALIDATION: return BB_EXIT_VALIDATION;
    default: return BB_EXIT_RUNTIME;
    }
}

void bb_cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("boxbfs: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *bb_build_commit(void)
{
#ifdef BB_COMMIT
    /* An empty definition (built outside a checkout) reads as unknown. */
    return BB_COMMIT[0] != '\0' ? BB_COMMIT : "unknown";
#else
    return "unknown";
#endif
}
