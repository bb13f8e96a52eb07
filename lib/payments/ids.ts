/** The shape of a transaction id (tx_ + 24 base62): anything else is not looked up. */
export const TX_ID = /^tx_[0-9A-Za-z]{24}$/;
