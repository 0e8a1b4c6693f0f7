/** `androidx.work.WorkerParameters`. */
class WorkerParameters {
}
