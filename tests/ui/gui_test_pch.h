// Precompiled header for Studio's test programs (tests/ui/CMakeLists.txt); never include it
// elsewhere. Qt Test, the widgets the tests drive and the fixture's headers: parsed once for the
// 36 programs instead of in each.
#pragma once
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "tracking/store.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>
