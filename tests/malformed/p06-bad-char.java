// expect: 4:19
class Main {
    void f() {
        int x = 1 # 2;
    }
}
