/* Private: formatted messages to an optional nav_log sink. */
#ifndef NAV_SRC_LOG_H
#define NAV_SRC_LOG_H

#include "nav/core.h"

#if defined(__GNUC__)
#define NAV__PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define NAV__PRINTF(fmt, args)
#endif

/* Formats and sends one message; does nothing when log is null or has no function. */
void nav__logf(const nav_log *log, nav_log_level level, const char *fmt, ...) NAV__PRINTF(3, 4);

#endif
