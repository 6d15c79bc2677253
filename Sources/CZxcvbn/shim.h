#pragma once
#include <zxcvbn.h>
