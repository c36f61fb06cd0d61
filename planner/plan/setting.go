package plan

// Setting is a SET, RESET, SHOW or set_config() of a run-time parameter.
type Setting struct {
	// Name is the parameter, lower-cased; "all" for SHOW ALL and RESET ALL;
	// "transaction" for SET TRANSACTION ... and SET SESSION CHARACTERISTICS
	// AS TRANSACTION of anything but an isolation level alone, which is
	// default_transaction_isolation.
	Name string
	// Value is the new value as text; "" with Default for SET x TO DEFAULT.
	Value string
	// List says SET gave several values (SET x = a, b), which only list
	// parameters such as search_path take.
	List    bool
	Default bool
	Reset   bool
	Show    bool
	// Local is SET LOCAL (or set_config's is_local): the value lasts until
	// the end of the transaction.
	Local bool
	// NameParam and ValueParam are set for a set_config() call whose name
	// or value is a parameter: its number ($1 is 1). Name or Value is ""
	// then, and the server takes the bound value.
	NameParam, ValueParam int
	// Column is the result column an alias names for a set_config() call,
	// "" for Postgres' default, set_config.
	Column string
}
