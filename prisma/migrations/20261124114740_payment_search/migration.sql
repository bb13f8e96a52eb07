-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "search_amount" BIGINT,
ADD COLUMN     "search_email_key" BYTEA,
ADD COLUMN     "search_name_terms" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "search_order_key" BYTEA;

-- Backfill (before the indexes exist, so they are built once): the keys that searchKeys() in
-- lib/payments/search.ts writes with every new row. The name folding is nameWords()'s: the Latin letters U+00C0-U+024F that NFKD folds to one
-- ASCII letter (this list; lib/payments/search.test.ts keeps it in step), then lower case, then
-- words split on anything not a-z0-9, then every 2-20 character prefix of each word.
-- Exponent-0 currencies (CLP) scale to hundredths like the others (searchKeys).
UPDATE "transactions" AS t SET
  "search_order_key" = convert_to(lower(t."merchant_order_id"), 'UTF8'),
  "search_email_key" = convert_to(lower(btrim(t."user_email")), 'UTF8'),
  "search_amount" = CASE
    WHEN t."input_amount" IS NOT NULL AND t."input_currency" IS NOT NULL THEN t."input_amount" * (CASE WHEN t."input_currency" = 'CLP' THEN 100 ELSE 1 END)
    ELSE t."amount_usd" END,
  "search_name_terms" = COALESCE((
    SELECT array_agg(DISTINCT left(w, n))
    FROM regexp_split_to_table(lower(translate(t."user_name", 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ', 'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyy')), '[^a-z0-9]+') AS w,
         generate_series(2, least(length(w), 20)) AS n
  ), ARRAY[]::TEXT[]);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_search_order_key_idx" ON "transactions"("merchant_id", "environment", "search_order_key");

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_search_email_key_idx" ON "transactions"("merchant_id", "environment", "search_email_key");

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_search_amount_idx" ON "transactions"("merchant_id", "environment", "search_amount");

-- CreateIndex
CREATE INDEX "transactions_search_name_terms_idx" ON "transactions" USING GIN ("search_name_terms");
