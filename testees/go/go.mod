module gdmarshal-testee-go

go 1.19
