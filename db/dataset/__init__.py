"""The dataset: its format (``schema``), files, how stored rows are read (``reader``) and written
(``writer``) in a guild's view (``rows``), and the shipped dataset (``seed``)."""
