catch throw
run
echo --- stopped at the throw, before the stack unwinds: up in main\n
frame function main
print logits
echo --- all 10 logits: log makes NaN of the 5 below 0\n
python MAX_VALUES = 10
print logits
