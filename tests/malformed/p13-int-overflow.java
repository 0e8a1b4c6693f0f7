// expect: 3:13
class Main {
    int x = 99999999999999999999;
}
