"""Every sentence parlbot says, by id: ``catalogue.Msg`` names them, ``en.ENGLISH`` words them."""
