// expect: 6:20 7:21
// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        switch (args.length) {
            case 1 -> Log.g();
            default -> Log.h();
        }
    }
}
