// tests/support/test_pch.hpp plus the Qt Widgets headers of the widget suites
// (tests/widgets/CMakeLists.txt).
#pragma once

#include "test_pch.hpp"

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeView>
#include <QtWidgets>
