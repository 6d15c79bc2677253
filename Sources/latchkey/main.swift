import LatchkeyServer

print("latchkey")
