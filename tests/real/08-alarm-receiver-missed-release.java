// spec: wakelock
// expect: violation
// entry: ReminderAlarmReceiver.onReceive
// why: onReceive() acquires a wake lock for the reminder, but when the reminder was deleted
// in the meantime it returns early and the lock is never released (the success path
// releases it).
package com.example.reminders.alarm;

import android.app.NotificationManager;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.os.PowerManager;
import android.util.Log;

public class ReminderAlarmReceiver extends BroadcastReceiver {
    private static final String TAG = "ReminderAlarm";
    static final String EXTRA_REMINDER_ID = "reminder_id";

    @Override
    public void onReceive(Context context, Intent intent) {
        PowerManager pm = (PowerManager) context.getSystemService(Context.POWER_SERVICE);
        PowerManager.WakeLock wl = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, "reminders:alarm");
        wl.acquire();

        long id = intent.getLongExtra(EXTRA_REMINDER_ID, -1L);
        Reminder reminder = ReminderStore.get(context).find(id);
        if (reminder == null) {
            Log.w(TAG, "reminder " + id + " vanished before it fired");
            return;
        }
        if (reminder.isSnoozed()) {
            reminder.reschedule(context);
        } else {
            NotificationManager nm = (NotificationManager) context.getSystemService(Context.NOTIFICATION_SERVICE);
            nm.notify((int) id, reminder.buildNotification(context));
        }
        wl.release();
    }
}

class Reminder {
    private final long id;
    private final String title;
    private long snoozeUntil;

    Reminder(long id, String title) {
        this.id = id;
        this.title = title;
    }

    boolean isSnoozed() {
        return snoozeUntil > System.currentTimeMillis();
    }

    void reschedule(Context context) {
        AlarmScheduler.schedule(context, id, snoozeUntil);
    }

    Object buildNotification(Context context) {
        return NotificationFactory.reminder(context, title);
    }
}
