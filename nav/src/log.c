#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void nav__logf(const nav_log *log, nav_log_level level, const char *fmt, ...)
{
    if (!log || !log->fn) return;
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    log->fn(level, message, log->user);
}
