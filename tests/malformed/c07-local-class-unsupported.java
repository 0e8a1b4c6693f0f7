// expect: 5:9
// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        final class Local { void run() { } }
        new Local().run();
    }
}
