// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// QSettings written off the UI thread. Writing QSettings syncs its file
// (a locked write, then fsync), which takes 5–20 ms on a busy disk: too long
// for the UI thread while a tab opens or closes. Values set here are visible
// at once to settingValue() and written by one background thread, latest
// value winning; flushSettings() waits for the write (call before exit).

#include <QString>
#include <QVariant>

namespace amn::ui {

/// Set `key` to `value` (an invalid QVariant removes the key). Returns at
/// once; the write happens on a background thread.
void setSettingAsync(const QString& key, const QVariant& value);
/// The value of `key`: a pending setSettingAsync() value if any, else what
/// QSettings holds, else `fallback`.
QVariant settingValue(const QString& key, const QVariant& fallback = {});
/// Wait until every pending write is in the settings file.
void flushSettings();

}  // namespace amn::ui
