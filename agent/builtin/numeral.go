package builtin

import (
	"strconv"
	"strings"
)

// englishNumbers are the English number words a line count may be
// written in (reLineCount lists the same), and their values.
var englishNumbers = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "hundred": 100, "a hundred": 100, "one hundred": 100,
	"two hundred": 200, "thousand": 1000,
}

// zhDigits are the Chinese digits' values.
var zhDigits = map[rune]int{'零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// numeral is s, a number in digits, in English words or in Chinese
// numerals ("二十", "一百五十", "十"), as digits; s itself when it is
// none of these. A last digit right after 百 or 千 is the next lower
// unit's, as said aloud ("一百五" is 150, "两千五" 2500); after 零 it
// is ones ("一百零五" is 105).
func numeral(s string) string {
	if _, err := strconv.Atoi(s); err == nil {
		return s
	}
	if n, ok := englishNumbers[strings.ToLower(s)]; ok {
		return strconv.Itoa(n)
	}
	total, digit, lastUnit, seen := 0, -1, 1, false
	for _, r := range s {
		unit := map[rune]int{'十': 10, '百': 100, '千': 1000}[r]
		switch d, isDigit := zhDigits[r]; {
		case isDigit:
			digit = d
			if d == 0 {
				lastUnit = 1 // 零: what follows is ones
			}
		case unit > 0:
			if digit < 0 {
				digit = 1 // 十 is 10, 十五 is 15
			}
			total += digit * unit
			digit, lastUnit = -1, unit
		default:
			return s
		}
		seen = true
	}
	if !seen {
		return s
	}
	if digit > 0 {
		total += digit * max(lastUnit/10, 1)
	}
	return strconv.Itoa(total)
}
