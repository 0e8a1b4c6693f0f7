/** `androidx.work.Worker`: whether it was stopped is arbitrary. */
abstract class Worker {
    /** `ListenableWorker.Result`. */
    public static class Result {
        public static Result success() {
            return new Result();
        }

        public static Result retry() {
            return new Result();
        }

        public static Result failure() {
            return new Result();
        }
    }

    public Worker(Context context, WorkerParameters params) {
    }

    public abstract Result doWork();

    public final Context getApplicationContext() {
        return new Context();
    }

    public final boolean isStopped() {
        return cfporacle.Rt.extBool();
    }
}
