/* The CLI's JSON writer; declared with the rest of the CLI in cli.h. */
#include "cli/cli.h"
