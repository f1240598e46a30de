// The headers most test suites include, precompiled once per test folder
// (tests/CMakeLists.txt, amn_test_pch_host): parsing Qt Test, the standard
// library and the core's public headers was half of each suite's compile
// time. Only headers every suite may see belong here; a suite still
// includes what it uses itself.
#pragma once

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"
