/* Small helpers shared by the boxbfs subcommands: strict integer parsing,
 * "--name=value" / "--name value" options, error printing with the exit code
 * of a status (cli.h), and the commit the binary was built from. */
#include "config.h"

#include "cli/cli.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

int bb_cli_fail(boxbfs_status_t status)
{
    const char *message = boxbfs_last_error();
    if (status == BOXBFS_OK) return BB_EXIT_OK;
    if (message == NULL || message[0] == '\0') message = boxbfs_status_string(status);
    fprintf(stderr, "boxbfs: %s\n", message);
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
