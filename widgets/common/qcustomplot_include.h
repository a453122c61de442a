#pragma once

// qcustomplot.h (2.1.0) is written with Qt's `signals` and `foreach` keywords, which this project
// turns off with QT_NO_KEYWORDS (style.md). Include QCustomPlot only through this header: it lends
// the two keywords for the duration of the include and takes them back afterwards.
#ifndef signals
#define signals Q_SIGNALS
#define ASCOPE_QCP_UNDEF_SIGNALS
#endif
#ifndef foreach
#define foreach Q_FOREACH
#define ASCOPE_QCP_UNDEF_FOREACH
#endif

#include <qcustomplot.h>

#ifdef ASCOPE_QCP_UNDEF_SIGNALS
#undef signals
#undef ASCOPE_QCP_UNDEF_SIGNALS
#endif
#ifdef ASCOPE_QCP_UNDEF_FOREACH
#undef foreach
#undef ASCOPE_QCP_UNDEF_FOREACH
#endif
